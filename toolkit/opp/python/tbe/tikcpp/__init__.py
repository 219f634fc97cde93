"""tbe.tikcpp (ascsim stand-in): nothing to compile here; opc does it."""

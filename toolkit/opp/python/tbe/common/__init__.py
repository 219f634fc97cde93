"""tbe.common (ascsim stand-in)."""

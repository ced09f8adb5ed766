"""spec package."""

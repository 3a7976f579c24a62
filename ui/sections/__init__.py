"""Long pages drawn in sections: one module per page, one function per section."""

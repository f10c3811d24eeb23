"""Side questions: asked about the open conversation without adding to it, in a dock of
their own."""

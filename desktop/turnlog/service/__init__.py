"""The use cases the window and `turnlog-cli` share, Qt-free: above the parts (store,
providers, the local model, tool servers, settings), below the two faces. `request_body`
is the one way to the body of a request."""

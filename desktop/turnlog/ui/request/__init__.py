"""The request: the connection to an endpoint, the send session, the live preview of the
draft and the request inspector."""

"""The pipeline CLI (``loko init``, ``push``, ``pull``, ``status``): an HTTP client of a Loko
server that keeps a repository's translation files and a project in step. It talks to the
server only through its REST API and never imports the server's code, so it runs without
an application, a database or a server configuration."""

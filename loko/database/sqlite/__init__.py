"""SQLite's side of the database layer, one module each: connection settings
(``configuration``), checkpoints, the writers' turn (``write_gate``), group commit, each
thread's own connection (``connections``), the WAL index and the rows kept by it
(``kept_rows``); ``engines`` tells which engines are SQLite files."""

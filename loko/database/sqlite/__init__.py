"""SQLite's side of the database layer: connection settings, checkpoints, the writers' turn,
group commit, each thread's connection, the WAL index and the rows kept by it. Every
function here does nothing, or returns None, on other databases."""

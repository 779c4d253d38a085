"""Job handlers of repohost."""

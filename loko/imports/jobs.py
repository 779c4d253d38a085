"""Job handlers of imports."""

"""Translation memory: every stored value of an organization's projects and the units of
imported TMX files, looked up exactly (by hash) and fuzzily (trigram candidates re-scored)."""

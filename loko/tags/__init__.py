"""Tags on keys: project-scoped names, any number on a key, to narrow the editor, the exports,
the imports, find and replace and pre-translation to a part of a project."""

"""The workspace: the pages that show the core and the workbench together, on the storey above
both. The editor (its grid with each value's issues, review state, comments and memory
matches; its read side in ``editor.py``), the translations' history, trash and undo pages
that share its blueprint, the project's overview (with its review counts) and settings (with
the checks' levels), and the editor's comment forms. Each keeps its blueprint's name, so its
URLs and endpoints are those the pages always had; nothing below imports this package."""

"""Find and replace over a project's values: a preview of every value a replacement changes,
and the apply of the ticked ones as one operation through the write path of a bulk write."""

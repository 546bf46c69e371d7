"""The app's name as a command: what it is started as, and how it signs what it writes on stderr (the app's
start and the main window both say things there; here so that neither imports the other for it)."""

PROG = "recordlens-annotator"

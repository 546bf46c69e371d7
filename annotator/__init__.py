"""RecordLens desktop application (PySide6 + QtWebEngine): views and controllers only."""

"""RecordLens engine: plain Python, no Qt anywhere below this package."""

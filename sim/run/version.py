"""The version of combatsim, in a module of its own so every layer can read it without a cycle.

``sim/__init__.py`` imports the public API, which imports the store, which writes this version
into ``run.json``: reading it from the package itself would go round in a circle.
"""

__version__ = "0.1.0"

"""The command line: a thin click layer over the library (:mod:`sim.cli.app`, its commands)."""

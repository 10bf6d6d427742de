"""Tests of ``scripts/``, one module per script."""

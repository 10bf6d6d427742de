"""Tests for reference.envs.classic_control."""

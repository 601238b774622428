"""Tests of voice_spades.keys."""

"""Tests of voice_spades.app."""

"""voice_spades."""

"""`python -m voice_spades` runs the `voice-spades` command."""

from voice_spades.cli import main

raise SystemExit(main())

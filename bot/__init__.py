"""unoflip: a Discord bot that hosts UNO Flip and classic UNO."""

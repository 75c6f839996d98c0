"""Discord cogs (command groups) of the unoflip bot."""

"""unoflip: a Discord bot that hosts UNO Flip and classic UNO."""

from bot.compiled import choose

# Before any engine module is imported: the compiled engine runs only if it matches its source.
ENGINE = choose()

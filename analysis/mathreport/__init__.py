"""A game as a file, its complete math report, and any math report checked line by line."""

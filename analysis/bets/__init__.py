"""Bet files: side bets as data (docs/bets.md): ``files`` reads them, ``conditions`` their
language, ``scopes`` what they are settled on, ``price`` their return tables."""

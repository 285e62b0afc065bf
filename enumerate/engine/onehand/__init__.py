"""One hand against every dealer hand of the other cards, counted directly, and the dense numbering
of classes that lets such a loop find each dealer hand's class.
"""

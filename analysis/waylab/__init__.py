"""The house-way lab: any dealer way priced from the per-dealer table, the house-optimal ceiling,
what each rule costs, the readings of the gli card, and ways compared hand by hand.
"""

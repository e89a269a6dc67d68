"""Forms of the pages, per feature: hand entry, the calculator, rulings, the points formula."""

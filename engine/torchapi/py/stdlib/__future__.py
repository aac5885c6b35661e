# __future__ for Kiln workloads. Kiln's parser acts on `annotations` (PEP 563: annotations are
# kept as strings); the other features are mandatory in Python 3.11 and change nothing.


class _Feature:
    def __init__(self, name, optional, mandatory):
        self.name = name
        self.optional = optional
        self.mandatory = mandatory

    def getOptionalRelease(self):
        return self.optional

    def getMandatoryRelease(self):
        return self.mandatory

    def __repr__(self):
        return f"_Feature({self.optional!r}, {self.mandatory!r}, 0)"


all_feature_names = ["nested_scopes", "generators", "division", "absolute_import",
                     "with_statement", "print_function", "unicode_literals", "barry_as_FLUFL",
                     "generator_stop", "annotations"]
nested_scopes = _Feature("nested_scopes", (2, 1, 0, "beta", 1), (2, 2, 0, "alpha", 0))
generators = _Feature("generators", (2, 2, 0, "alpha", 1), (2, 3, 0, "final", 0))
division = _Feature("division", (2, 2, 0, "alpha", 2), (3, 0, 0, "alpha", 0))
absolute_import = _Feature("absolute_import", (2, 5, 0, "alpha", 1), (3, 0, 0, "alpha", 0))
with_statement = _Feature("with_statement", (2, 5, 0, "alpha", 1), (2, 6, 0, "alpha", 0))
print_function = _Feature("print_function", (2, 6, 0, "alpha", 2), (3, 0, 0, "alpha", 0))
unicode_literals = _Feature("unicode_literals", (2, 6, 0, "alpha", 2), (3, 0, 0, "alpha", 0))
generator_stop = _Feature("generator_stop", (3, 5, 0, "beta", 1), (3, 7, 0, "alpha", 0))
annotations = _Feature("annotations", (3, 7, 0, "beta", 1), None)

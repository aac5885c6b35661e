def outer():
    def inner():
        return missing_name
    return inner()
outer()

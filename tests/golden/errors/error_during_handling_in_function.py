def parse(s):
    try:
        return int(s)
    except ValueError:
        return float(s)
parse('abc')

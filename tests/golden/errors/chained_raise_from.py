def load(key):
    try:
        return {}[key]
    except KeyError as e:
        raise ValueError(f'bad key {key}') from e
load('x')

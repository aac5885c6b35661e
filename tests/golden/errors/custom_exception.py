class ConfigError(Exception):
    pass
def check(v):
    if v < 0:
        raise ConfigError(f'negative value: {v}')
check(-1)

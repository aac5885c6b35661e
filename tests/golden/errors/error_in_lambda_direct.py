key = lambda item: item['name']
sorted([{'n': 1}], key=key)

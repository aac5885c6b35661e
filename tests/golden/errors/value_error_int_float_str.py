n = int('3.5')

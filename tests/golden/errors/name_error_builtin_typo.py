lenght = 3
prin(lenght)

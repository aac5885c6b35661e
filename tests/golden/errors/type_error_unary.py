x = -'text'

# Tabs and spaces may be mixed where the meaning does not depend on the tab width.
if True:
	x = 1
	if x:
	    y = 2
	    print(x, y)
if True:
  	z = 3
  	print(z)
if True:
    print("form feed resets the column")

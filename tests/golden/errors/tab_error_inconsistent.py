# Indentation that means different things with tab stops of 8 and of 1 is a TabError.
print("before")
if True:
	x = 1
        print(x)

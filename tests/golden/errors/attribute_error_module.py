import math
print(math.tau)
math.nope

class CodeError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code
    def __str__(self):
        return f'error code {self.code}'
raise CodeError(42)

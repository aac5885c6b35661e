config = {
    'lr': 0.1,
    'layers': undefined_layers,
}

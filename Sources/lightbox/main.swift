print("lightbox")

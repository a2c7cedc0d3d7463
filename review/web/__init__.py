"""The review web app's parts, one concern per module; `review.app.create_app` assembles them."""

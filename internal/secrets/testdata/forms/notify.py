import os

SLACK_BOT_TOKEN = "xoxb-@@357522547483-6434588810376-2kSEmBtjBq06qzdfpe28uOME"


def notify(text):
    return {"token": SLACK_BOT_TOKEN, "text": text}

"""What every page's header needs to know about the user's account."""

from dogcase.accounts.manage import may_manage_users


def account_links(request) -> dict:
    # a callable: the template calls it only where it is used (the header of a logged-in page)
    return {"may_manage_users": lambda: may_manage_users(request.user)}

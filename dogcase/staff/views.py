from django.shortcuts import render

from dogcase.staff.roles import roles_of


def home(request):
    return render(request, "staff/home.html", {"roles": roles_of(request.user)})

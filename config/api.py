"""API plumbing shared by every app: refusals become 4xx with their sentence."""

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from characters.permissions import Refusal


def exception_handler(exc, context):
    if isinstance(exc, Refusal):
        body = {"detail": str(exc.message)}
        if exc.field:
            body = {exc.field: [str(exc.message)]}
        return Response(body, status=exc.status or status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)

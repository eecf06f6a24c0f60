// The CourierWebSocket module. Its files hold one main type each.

// The CourierApp module. Its files hold one main type each.

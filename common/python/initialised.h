// Arguments of bound classes that Python made without their __init__.
//
// Python can make an instance of a bound class without running its __init__
// (`loyd.Board.__new__(loyd.Board)`); pybind11 then hands the bound functions uninitialised
// memory for its C++ value, and a call can crash. InitialisedCaster<T> loads a T argument (self
// included) only from an instance whose __init__ ran, else it raises TypeError naming the
// class. A class's caster is specialised in the header that declares its bindings
// (py_board.h, py_tables.h), which every file of the module that binds the class includes.
// Cost: one type check and one flag read per argument.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <typeinfo>

namespace loyd::python {

template <class T>
class InitialisedCaster : public pybind11::detail::type_caster_base<T> {
public:
    bool load(pybind11::handle src, bool convert) {
        namespace detail = pybind11::detail;
        const detail::type_info* info = detail::get_type_info(typeid(T));
        if (src && info && PyObject_TypeCheck(src.ptr(), info->type)) {
            auto* inst = reinterpret_cast<detail::instance*>(src.ptr());
            // T's own value and holder (a Python subclass may hold several C++ types). Its
            // value pointer is null until first used, so the holder tells whether __init__ ran.
            const detail::value_and_holder vh = inst->get_value_and_holder(info, false);
            if (!vh.inst || !vh.holder_constructed())
                throw pybind11::type_error(std::string("this ") + info->type->tp_name +
                                           " was never initialised (made by __new__ without "
                                           "__init__)");
        }
        return detail::type_caster_base<T>::load(src, convert);
    }
};

}  // namespace loyd::python
